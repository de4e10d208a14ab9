/**
 * Another operator: a process of its own that times one signed-in GET after another until it is sent
 * SIGTERM, then prints the timings (ms, as JSON) and exits. The fleet benchmark runs it beside its
 * burst of creates, so the GETs wait on the server alone, not on the event loop and heap of the
 * process generating the burst. Usage: node bench/latency-probe.mjs <url> <token>
 */
const [url, token] = process.argv.slice(2);
const timings = [];
let stopped = false;
process.once('SIGTERM', () => {
  stopped = true;
});

process.stdout.write('ready\n');
while (!stopped) {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  if (!response.ok) {
    process.stderr.write(`GET ${url}: ${response.status}\n`);
    process.exit(1);
  }
  timings.push(performance.now() - started);
}
process.stdout.write(`${JSON.stringify(timings)}\n`);
