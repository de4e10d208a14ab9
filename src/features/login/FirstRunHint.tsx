import Button from '@mui/material/Button';
import { useEffect, useState } from 'react';
import { loadAuthApi } from '../../api/load-auth';
import { Notice } from '../../components/Notice';

export const FIRST_RUN_QUESTION = 'First sign-in?';
export const FIRST_RUN_PASSWORD_CHANGED =
  'No generated password is waiting: the first password was set with ADMIN_PASSWORD or has been changed since. Sign in with your own account, or ask a superuser for one.';
export const FIRST_RUN_UNREACHABLE = 'The server did not answer. Try again in a moment.';

type Answer = { file: string } | 'changed' | 'unreachable';

/**
 * Where a newcomer finds the generated superuser password, for as long as the server still keeps the file. The
 * page asks only when the operator clicks "First sign-in?" or after a failed sign-in, so showing the form costs
 * no call and no HTTP client; the password itself never leaves the server's disk.
 */
export function FirstRunHint({ failedSignIns }: { failedSignIns: number }) {
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [asking, setAsking] = useState(false);

  const ask = async (): Promise<Answer> => {
    try {
      const file = await (await loadAuthApi()).firstRunPasswordFile();
      return file ? { file } : 'changed';
    } catch {
      return 'unreachable';
    }
  };

  useEffect(() => {
    if (failedSignIns === 0) return;
    let current = true;
    // Unasked, only the file's whereabouts are worth saying: nothing is better than a second error.
    void ask().then((found) => current && typeof found === 'object' && setAnswer(found));
    return () => {
      current = false;
    };
  }, [failedSignIns]);

  const askNow = async () => {
    setAsking(true);
    setAnswer(await ask());
    setAsking(false);
  };

  if (answer && typeof answer === 'object') {
    return (
      <Notice severity="info">
        {FIRST_RUN_QUESTION} Sign in as <code>admin</code> (or the name in <code>ADMIN_USERNAME</code>, if it was set)
        with the password in the file <code>{answer.file}</code> in the server&apos;s data folder (<code>./data</code>{' '}
        unless <code>DATA_DIR</code> is set).
      </Notice>
    );
  }
  if (answer === 'changed') return <Notice severity="info">{FIRST_RUN_PASSWORD_CHANGED}</Notice>;
  return (
    <>
      {answer === 'unreachable' && <Notice severity="warning">{FIRST_RUN_UNREACHABLE}</Notice>}
      <Button
        size="small"
        disabled={asking}
        onClick={() => void askNow()}
        sx={{ display: 'block', mx: 'auto', textTransform: 'none' }}
      >
        {FIRST_RUN_QUESTION}
      </Button>
    </>
  );
}
