import Typography from '@mui/material/Typography';
import { useMosqueById } from '../api/mosque-lookup';

/**
 * A mosque as operators know it: its name, with the id beneath; the id alone while its name is read or
 * when no mosque has it; N/A for none. The names on screen are read together, by id, never the fleet.
 */
export function MosqueName({ mosqueId }: { mosqueId: string | null | undefined }) {
  const { data: mosque } = useMosqueById(mosqueId);
  if (!mosqueId) return <>N/A</>;
  if (!mosque) return <>{mosqueId}</>;
  return (
    <>
      <Typography variant="body2" component="span" sx={{ display: 'block' }}>
        {mosque.name}
      </Typography>
      <Typography variant="caption" color="textSecondary" component="span" sx={{ display: 'block' }}>
        {mosqueId}
      </Typography>
    </>
  );
}
