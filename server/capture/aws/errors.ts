import type { EC2ClientConfig } from '@aws-sdk/client-ec2';
import { ProviderError } from '../provider';

interface AwsErrorShape {
  name?: string;
  Code?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

const UNAVAILABLE =
  /Throttl|RequestLimitExceeded|TooManyRequests|RequestThrottled|ServiceUnavailable|Unavailable$|InsufficientInstanceCapacity|InternalError/;
const NOT_FOUND = /NotFound|\.Malformed$|InvalidAMIID\.Unavailable/;
const CONFLICT = /IncorrectState|IncorrectInstanceState|InvalidInstanceState|InvalidAMIID\.Pending/;
const NETWORK = /ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|TimeoutError|socket hang up/;

/** No room for this instance type in this place (AZ capacity, the account's quota, no spot capacity): another pair may have it. */
const CAPACITY =
  /InsufficientInstanceCapacity|InstanceLimitExceeded|VcpuLimitExceeded|InsufficientFreeAddressesInSubnet|^Unsupported$|MaxSpotInstanceCountExceeded|SpotMaxPriceTooLow|InsufficientCapacity/;

/** Whether RunInstances failed for want of capacity where it asked (not for a fault of the request). */
export function isCapacityError(error: unknown): boolean {
  const e = (error ?? {}) as AwsErrorShape;
  return CAPACITY.test(e.Code ?? e.name ?? e.code ?? '');
}

type RetryStrategy = NonNullable<EC2ClientConfig['retryStrategy']>;

/**
 * The SDK's retry strategy, except that a place without capacity is not asked again: EC2 answers
 * InsufficientInstanceCapacity with a 500, which the SDK would retry where the next instance type or
 * subnet may have room (the driver tries those). Throttling and other transient errors are retried.
 */
export function withoutCapacityRetries(standard: RetryStrategy): RetryStrategy {
  if (!('refreshRetryTokenForRetry' in standard)) return standard;
  return {
    acquireInitialRetryToken: (scope) => standard.acquireInitialRetryToken(scope),
    refreshRetryTokenForRetry: (token, info) =>
      isCapacityError(info.error) ? Promise.reject(info.error) : standard.refreshRetryTokenForRetry(token, info),
    recordSuccess: (token) => standard.recordSuccess(token),
  };
}

/**
 * Turns an EC2 SDK failure into a ProviderError with AWS's own reason: throttling, capacity and
 * an unreachable endpoint are "unavailable" (503), unknown ids "not_found" (404), a resource in the wrong
 * state "conflict" (409), the rest "failed" (502).
 */
export function awsError(error: unknown, action: string): ProviderError {
  if (error instanceof ProviderError) return error;
  const e = (error ?? {}) as AwsErrorShape;
  const code = e.Code ?? e.name ?? e.code ?? 'Error';
  const message = (e.message ?? String(error)).replace(/\s+/g, ' ').trim();
  if (NETWORK.test(code) || NETWORK.test(message))
    return new ProviderError('unavailable', `AWS EC2 cannot be reached (${action}): ${message}`);
  if (UNAVAILABLE.test(code))
    return new ProviderError('unavailable', `AWS EC2 ${action} is unavailable right now (${code}): ${message}`);
  if (NOT_FOUND.test(code)) return new ProviderError('not_found', `AWS EC2 ${action}: ${message}`);
  if (CONFLICT.test(code)) return new ProviderError('conflict', `AWS EC2 ${action}: ${message}`);
  return new ProviderError('failed', `AWS EC2 ${action} failed (${code}): ${message}`);
}
