import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Ec2Fault {
  status: number;
  code: string;
  message: string;
}

export const THROTTLED: Ec2Fault = { status: 503, code: 'RequestLimitExceeded', message: 'Request limit exceeded.' };
export const UNAUTHORIZED: Ec2Fault = {
  status: 403,
  code: 'UnauthorizedOperation',
  message: 'You are not authorized to perform this operation.',
};
export const INTERNAL: Ec2Fault = { status: 500, code: 'InternalError', message: 'An internal error has occurred.' };

export interface Ec2FaultProxy {
  url: string;
  /** EC2 actions (`RunInstances`, `DescribeInstances`...) to answer with an error instead of forwarding. */
  faults: Map<string, Ec2Fault>;
  /** How many calls of each action arrived (forwarded or failed). */
  calls: Map<string, number>;
  close(): Promise<void>;
}

/** EC2's query API names the action in the form body (`Action=RunInstances&Version=...`). */
function actionOf(body: string): string {
  return new URLSearchParams(body).get('Action') ?? 'Unknown';
}

/**
 * A local HTTP proxy in front of moto_server that answers chosen EC2 actions with EC2's XML error body
 * (as AWS does when it throttles or refuses) and forwards everything else.
 */
export async function startEc2FaultProxy(target: string): Promise<Ec2FaultProxy> {
  const faults = new Map<string, Ec2Fault>();
  const calls = new Map<string, number>();
  const upstream = new URL(target);
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const action = actionOf(body.toString('utf8'));
      calls.set(action, (calls.get(action) ?? 0) + 1);
      const fault = faults.get(action);
      if (fault) {
        const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error><Code>${fault.code}</Code><Message>${fault.message}</Message></Error></Errors><RequestID>fault-proxy-${calls.get(action)}</RequestID></Response>`;
        response
          .writeHead(fault.status, {
            'content-type': 'text/xml;charset=UTF-8',
            'content-length': Buffer.byteLength(xml),
          })
          .end(xml);
        return;
      }
      const forward = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: request.method,
          path: request.url,
          headers: { ...request.headers, host: upstream.host },
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forward.on('error', (error) =>
        response.writeHead(502, { 'content-type': 'text/plain' }).end(`fault proxy: ${error.message}`),
      );
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    faults,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
