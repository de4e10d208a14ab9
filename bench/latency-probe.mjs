/**
 * Another operator: a process of its own that times one signed-in GET after another until it is sent
 * SIGTERM, then prints the timings (ms, as JSON) and exits. The fleet benchmark runs it beside its
 * burst of creates, so the GETs wait on the server alone, not on the event loop and heap of the
 * process generating the burst. Usage: node bench/latency-probe.mjs <url> <token> [--stamped] [--every=MS]
 */
const [url, token, ...options] = process.argv.slice(2);
// --stamped: each timing with when it started (ms since the probe started), for figures per stretch of time.
const stamped = options.includes('--stamped');
// --every=MS: a GET started every MS at most, as consoles poll, rather than back to back.
const every = Number(options.find((o) => o.startsWith('--every='))?.slice('--every='.length) ?? 0);
const began = performance.now();
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
  const ms = performance.now() - started;
  timings.push(stamped ? { at: started - began, ms } : ms);
  if (every > ms) await new Promise((resolve) => setTimeout(resolve, every - ms));
}
process.stdout.write(`${JSON.stringify(timings)}\n`);
