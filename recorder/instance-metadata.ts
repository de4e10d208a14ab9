/*
 * This machine's public addresses that no interface shows: on EC2 the instance's public IPv4 is
 * translated by AWS's network and never appears on an interface, yet a service bound to 0.0.0.0 answers
 * on it. The instance metadata service knows it, read with a session token (IMDSv2, which the recorder
 * instances require). Part of the recorder runtime: Node only.
 */
import fs from 'node:fs';
import net from 'node:net';

export const EC2_METADATA_ENDPOINT = 'http://169.254.169.254';

/** The metadata items that hold this instance's public addresses (absent: 404). */
const ITEMS = ['public-ipv4', 'ipv6'];

/** Files Linux shows on EC2: the hypervisor's vendor (Nitro), or the Xen hypervisor's id. */
const EC2_MARKS: Array<[string, RegExp]> = [
  ['/sys/devices/virtual/dmi/id/sys_vendor', /^Amazon EC2$/],
  ['/sys/hypervisor/uuid', /^ec2/i],
];

/** Whether this machine is an EC2 instance, from what Linux shows of its hypervisor (no request made). */
export function runsOnEc2(read: (file: string) => string = (file) => fs.readFileSync(file, 'utf8')): boolean {
  return EC2_MARKS.some(([file, mark]) => {
    try {
      return mark.test(read(file).trim());
    } catch {
      return false;
    }
  });
}

/**
 * The instance's public addresses (IPv4 and IPv6) from an IMDSv2 metadata service at `endpoint`: a
 * session token first (PUT), then each item with it. Throws with the reason when the service does not
 * answer as one, so that a caller never takes "unreadable" for "none".
 */
export async function instancePublicAddresses(endpoint: string, timeoutMs = 2000): Promise<string[]> {
  const signal = AbortSignal.timeout(timeoutMs);
  const tokenAnswer = await fetch(`${endpoint}/latest/api/token`, {
    method: 'PUT',
    headers: { 'x-aws-ec2-metadata-token-ttl-seconds': '60' },
    signal,
  });
  if (!tokenAnswer.ok) throw new Error(`the metadata service gave no session token (HTTP ${tokenAnswer.status})`);
  const token = (await tokenAnswer.text()).trim();
  const addresses: string[] = [];
  for (const item of ITEMS) {
    const answer = await fetch(`${endpoint}/latest/meta-data/${item}`, {
      headers: { 'x-aws-ec2-metadata-token': token },
      signal,
    });
    if (answer.status === 404) continue;
    if (!answer.ok) throw new Error(`the metadata service answered ${item} with HTTP ${answer.status}`);
    addresses.push(...(await answer.text()).split(/\s+/).filter((address) => net.isIP(address) !== 0));
  }
  return addresses;
}
