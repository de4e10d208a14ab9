import Avatar from '@mui/material/Avatar';
import type { SxProps, Theme } from '@mui/material/styles';
import { avatarColor, initials } from '../lib/avatar';

interface UserAvatarProps {
  username: string;
  fullName?: string | null;
  size?: number;
  sx?: SxProps<Theme>;
}

/** Initials on one of 8 colours chosen by the username (docs/reference.md section 2, Avatar). */
export function UserAvatar({ username, fullName, size = 40, sx }: UserAvatarProps) {
  return (
    <Avatar
      sx={[
        {
          bgcolor: avatarColor(username),
          color: '#fff',
          width: size,
          height: size,
          fontSize: size * 0.4,
          fontWeight: 500,
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
      aria-hidden
    >
      {initials(fullName, username)}
    </Avatar>
  );
}
