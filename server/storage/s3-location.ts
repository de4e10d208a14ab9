/** `s3://bucket/prefix` -> bucket and prefix ('' or ending in '/'); undefined when it is not an S3 URL. */
export function parseS3Location(value: string): { bucket: string; prefix: string } | undefined {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(value.trim());
  if (!match) return undefined;
  const rest = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  return { bucket: match[1], prefix: rest ? `${rest}/` : '' };
}
