import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import BlockIcon from '@mui/icons-material/Block';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import EditIcon from '@mui/icons-material/Edit';
import type { User } from '../../../contract/auth';
import { UserAvatar } from '../../components/UserAvatar';
import { formatDateTime } from '../../lib/dates';
import { roleLabel } from '../../lib/roles';
import { SortableHeaderRow, type HeaderColumn } from '../../components/SortableHeaderRow';
import { ActionsCell, TableMessageRow } from '../../components/TableParts';
import type { UserSortField } from '../../../contract/user-list';

interface UsersTableProps {
  users: User[];
  loading: boolean;
  sort: UserSortField | null;
  order: 'asc' | 'desc';
  onSort: (field: UserSortField) => void;
  currentUserId: number | undefined;
  busyUserId: number | null;
  onEdit: (user: User) => void;
  onToggleActive: (user: User) => void;
}

const COLUMNS: readonly HeaderColumn<UserSortField>[] = [
  { label: 'User', sortKey: 'username' },
  { label: 'Email', sortKey: 'email' },
  { label: 'Role', sortKey: 'role' },
  { label: 'Status', sortKey: 'is_active' },
  { label: 'Last Login', sortKey: 'last_login' },
  { label: 'Actions' },
];

export function UsersTable({
  users,
  loading,
  sort,
  order,
  onSort,
  currentUserId,
  busyUserId,
  onEdit,
  onToggleActive,
}: UsersTableProps) {
  return (
    <TableContainer component={Paper}>
      {/* Narrower padding and wrapping cells below md keep the Actions column on a tablet's screen. */}
      <Table aria-label="Users" sx={{ '& th, & td': { px: { xs: 1, md: 2 } } }}>
        <SortableHeaderRow columns={COLUMNS} sort={sort} order={order} onSort={onSort} />
        <TableBody>
          {loading && users.length === 0 && (
            <TableMessageRow colSpan={COLUMNS.length}>Loading users...</TableMessageRow>
          )}
          {!loading && users.length === 0 && <TableMessageRow colSpan={COLUMNS.length}>No users found</TableMessageRow>}
          {users.map((user) => {
            const self = user.id === currentUserId;
            const toggleLabel = user.is_active ? 'Deactivate' : 'Activate';
            return (
              <TableRow key={user.id} hover>
                <TableCell>
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
                    <UserAvatar username={user.username} fullName={user.full_name} size={36} />
                    <Box sx={{ minWidth: 0 }}>
                      <Typography sx={{ fontWeight: 500 }}>{user.full_name || user.username}</Typography>
                      <Typography variant="body2" color="textSecondary">
                        @{user.username}
                      </Typography>
                    </Box>
                  </Box>
                </TableCell>
                {/* Wraps at the @ when it must (break-word, unlike break-all, never narrows the column to split a word). */}
                <TableCell sx={{ overflowWrap: 'break-word' }}>
                  <EmailText email={user.email} />
                </TableCell>
                <TableCell>
                  <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
                    <Chip
                      size="small"
                      label={roleLabel(user.role)}
                      color={user.role === 'admin' ? 'primary' : 'default'}
                    />
                    {user.is_superuser && <Chip size="small" label="Super" color="secondary" />}
                  </Box>
                </TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    variant="outlined"
                    label={user.is_active ? 'Active' : 'Inactive'}
                    color={user.is_active ? 'success' : 'default'}
                  />
                </TableCell>
                <TableCell sx={{ whiteSpace: { md: 'nowrap' } }}>{formatDateTime(user.last_login)}</TableCell>
                <ActionsCell>
                  <Tooltip title="Edit User">
                    <IconButton aria-label={`Edit User ${user.username}`} onClick={() => onEdit(user)} size="small">
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={self ? 'You cannot change your own status' : toggleLabel}>
                    <span>
                      <IconButton
                        aria-label={`${toggleLabel} ${user.username}`}
                        onClick={() => onToggleActive(user)}
                        disabled={self || busyUserId === user.id}
                        color={user.is_active ? 'error' : 'success'}
                        size="small"
                      >
                        {user.is_active ? <BlockIcon fontSize="small" /> : <CheckCircleIcon fontSize="small" />}
                      </IconButton>
                    </span>
                  </Tooltip>
                </ActionsCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** An address with a line-break opportunity before its @, so it wraps between its two halves, not mid-word. */
function EmailText({ email }: { email: string }) {
  const at = email.indexOf('@');
  if (at <= 0) return email;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}
