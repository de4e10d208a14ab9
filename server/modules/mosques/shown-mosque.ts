import type { Mosque } from '../../../contract/mosques';
import { MASK, maskUrlSecrets } from '../../../recorder/url-secrets';

/**
 * A mosque as every answer shows it, to every role: its stream field (`ID_token`, a URL or an id)
 * with a password and token-like query values as `***`, as stream URLs are shown everywhere else.
 * The service, the scheduler and the recorders keep the full value.
 */
export function shownMosque(mosque: Mosque): Mosque {
  if (!mosque.ID_token) return mosque;
  const shown = maskUrlSecrets(mosque.ID_token);
  return shown === mosque.ID_token ? mosque : { ...mosque, ID_token: shown };
}

/**
 * The stream field an update stores. A form saved with the field untouched sends back the masked
 * value it was shown: the stored one stays, rather than being overwritten with `***`. Any other
 * value, one holding `***` included, is the operator's new one.
 */
export function idTokenToStore(sent: string | null, stored: string | null): string | null {
  return sent !== null && stored !== null && sent.includes(MASK) && sent === maskUrlSecrets(stored) ? stored : sent;
}
