import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Ec2CapacityGate {
  url: string;
  /** Each RunInstances asked, as `type@subnet` (`default` without a subnet), `+spot` for a spot request. */
  tried: string[];
  close(): Promise<void>;
}

/**
 * An EC2 endpoint in front of moto that forwards every call, except a RunInstances that `full` says has
 * no room: that one is answered as AWS does (HTTP 500, `code`, default InsufficientInstanceCapacity).
 * moto always has capacity; tests of what the server does without it put this in front.
 */
export async function ec2CapacityGate(
  motoUrl: string,
  full: (params: URLSearchParams) => boolean,
  code = 'InsufficientInstanceCapacity',
): Promise<Ec2CapacityGate> {
  const tried: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const params = new URLSearchParams(body.toString());
      if (params.get('Action') === 'RunInstances') {
        const spot = params.get('InstanceMarketOptions.MarketType') === 'spot' ? '+spot' : '';
        tried.push(`${params.get('InstanceType')}@${params.get('SubnetId') ?? 'default'}${spot}`);
        if (full(params)) {
          response
            .writeHead(500, { 'content-type': 'text/xml' })
            .end(
              `<?xml version="1.0" encoding="UTF-8"?><Response><Errors><Error><Code>${code}</Code><Message>We currently do not have sufficient capacity in the Availability Zone you requested.</Message></Error></Errors><RequestID>r-1</RequestID></Response>`,
            );
          return;
        }
      }
      const forwarded = http.request(
        new URL(request.url ?? '/', motoUrl),
        { method: request.method, headers: request.headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tried,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
