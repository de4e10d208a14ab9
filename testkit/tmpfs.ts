import { spawnSync } from 'node:child_process';
import { waitFor } from './wait';

/**
 * Unmounts `dir`, retrying while it is busy (a recorder that wrote there may still be exiting), and
 * detaches it lazily if it stays busy: a test's cleanup never leaves a mount behind.
 */
export async function unmount(dir: string): Promise<void> {
  const unmounted = await waitFor(
    () => spawnSync('umount', [dir], { stdio: 'ignore' }).status === 0,
    `${dir} to unmount`,
    3000,
    100,
  ).then(
    () => true,
    () => false,
  );
  if (!unmounted) spawnSync('umount', ['-l', dir], { stdio: 'ignore' });
}
