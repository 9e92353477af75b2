// A Nominatim stand-in for the reverse-geocode tests, run as its own process: prints its port, then
// answers /reverse. lat 10: slow (3 s); lat 20: HTTP 500; lat 30: not JSON; lat 0, lon 0: "Unable to
// geocode" (open sea); otherwise an address naming the coordinates. /stats: requests and last User-Agent.
import http from 'node:http';

let requests = 0;
let userAgent = '';
const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname === '/stats') {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ requests, userAgent }));
    return;
  }
  requests++;
  userAgent = req.headers['user-agent'] ?? '';
  const lat = Number(url.searchParams.get('lat'));
  const lon = Number(url.searchParams.get('lon'));
  const json = (body, status = 200) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (url.pathname !== '/reverse' || url.searchParams.get('format') !== 'jsonv2') return json({ error: 'bad' }, 400);
  if (lat === 10) return void setTimeout(() => json({ display_name: 'too late' }), 3000);
  if (lat === 20) return json({ error: 'boom' }, 500);
  if (lat === 30) {
    res.end('<html>not json</html>');
    return;
  }
  if (lat === 0 && lon === 0) return json({ error: 'Unable to geocode' });
  json({ display_name: `Addr ${lat},${lon} (${url.searchParams.get('accept-language')})` });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
