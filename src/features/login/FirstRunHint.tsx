import Alert from '@mui/material/Alert';
import { useEffect, useState } from 'react';
import { INITIAL_PASSWORD_FILE } from '../../../contract/auth';
import { initialPasswordFileExists } from '../../api/auth';

/**
 * Where a newcomer finds the generated superuser password, shown for as long as the server still keeps the
 * file. The page asks only whether the file exists; the password itself never leaves the server's disk.
 */
export function FirstRunHint() {
  const [fileExists, setFileExists] = useState(false);
  useEffect(() => {
    let current = true;
    initialPasswordFileExists().then(
      (exists) => current && setFileExists(exists),
      () => undefined, // no hint is better than an error on the sign-in page
    );
    return () => {
      current = false;
    };
  }, []);
  if (!fileExists) return null;
  return (
    <Alert severity="info" variant="outlined" sx={{ mt: 2 }}>
      First sign-in? The superuser&apos;s password is in the file <code>{INITIAL_PASSWORD_FILE}</code> in the server&apos;s data folder
      (<code>./data</code> unless <code>DATA_DIR</code> is set).
    </Alert>
  );
}
