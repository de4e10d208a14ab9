import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { useMosques } from '../api/config';

/** Mosque names by id, from the mosque list (empty until it has loaded). */
export function useMosqueNames(): ReadonlyMap<string, string> {
  const { data } = useMosques();
  return useMemo(() => new Map((data ?? []).map((mosque) => [mosque.mosque_id, mosque.name])), [data]);
}

/** A mosque as operators know it: its name, with the id beneath; the id alone when no mosque has it; N/A for none. */
export function MosqueName({ mosqueId }: { mosqueId: string | null | undefined }) {
  const names = useMosqueNames();
  if (!mosqueId) return <>N/A</>;
  const name = names.get(mosqueId);
  if (!name) return <>{mosqueId}</>;
  return (
    <>
      <Typography variant="body2" component="span" sx={{ display: 'block' }}>
        {name}
      </Typography>
      <Typography variant="caption" color="textSecondary" component="span" sx={{ display: 'block' }}>
        {mosqueId}
      </Typography>
    </>
  );
}
