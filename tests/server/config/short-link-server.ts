import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the short-link services on 127.0.0.1: the resolver sends its requests here (its
 * `resolveOrigin`), and this server answers as goo.gl and maps.app.goo.gl do, with redirects.
 */
export function startShortLinkServer(): Promise<{ origin: string; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = [];
  const server = http.createServer((request, response) => {
    const url = request.url ?? '/';
    hits.push(url);
    const redirect = (location: string, status = 302) => {
      response.writeHead(status, { location });
      response.end();
    };
    if (url === '/maps/MeccaShort1')
      return redirect(
        'https://www.google.com/maps/place/Masjid+al-Haram/@21.4224779,39.8251832,17z/data=!3m1!4b1!4m6!3m5!8m2!3d21.4224779!4d39.8262375',
        301,
      );
    if (url === '/Cairo2hops') return redirect('https://maps.app.goo.gl/Cairo2hops?g_st=ic');
    if (url === '/Cairo2hops?g_st=ic') return redirect('https://www.google.com/maps?q=30.0457,31.2627&ftid=0x1458');
    if (url === '/Consent')
      return redirect(
        'https://consent.google.com/ml?continue=https://www.google.com/maps/@-33.9196,151.0766,15z&gl=AU',
      );
    if (url === '/NoCoords') return redirect('/maps/place/Somewhere');
    if (url === '/maps/place/Somewhere') {
      response.writeHead(200, { 'content-type': 'text/html' });
      return response.end(
        '<html><head><meta content="https://maps.google.com/maps/api/staticmap?center=40.7859%2C-73.9493&amp;zoom=15" itemprop="image"></head></html>',
      );
    }
    if (url === '/Blank') {
      response.writeHead(200, { 'content-type': 'text/html' });
      return response.end('<html>nothing here</html>');
    }
    if (url === '/Loop') return redirect('https://maps.app.goo.gl/Loop');
    if (url === '/Elsewhere') return redirect('http://169.254.169.254/latest/meta-data');
    if (url === '/Hang') return; // never answers
    response.writeHead(404);
    response.end();
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        origin: `http://127.0.0.1:${port}`,
        hits,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A port nothing listens on: connecting to it is refused, as with no network. */
export async function closedPort(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
