import { badGateway, badRequest, conflict, HttpError, notFound, serviceUnavailable } from '../lib/http-error';
import { ProviderError } from './provider';

/** A provider failure as the HTTP error the operator sees, with the provider's own reason. */
export function providerHttpError(error: unknown): Error {
  if (error instanceof HttpError || !(error instanceof ProviderError))
    return error instanceof Error ? error : new Error(String(error));
  switch (error.kind) {
    case 'not_found':
      return notFound(error.message);
    case 'conflict':
      return conflict(error.message);
    case 'invalid':
      return badRequest(error.message);
    case 'unavailable':
      return serviceUnavailable(error.message);
    default:
      return badGateway(error.message);
  }
}

/** The sentence to show for a failure (live feed, per-instance results); unexpected errors stay in the log. */
export function failureMessage(error: unknown): string {
  if (error instanceof HttpError || error instanceof ProviderError) return error.message;
  return 'Unexpected server error (see the server log)';
}
