// mockttp (HTTP Toolkit's mock server) serving the same bytes for the same route.
import { getLocal } from '../peers/node_modules/mockttp/dist/main.js';

const [port = '0'] = process.argv.slice(2);
const { authorization, routes } = JSON.parse(process.env.PEER_ROUTES);
const server = getLocal();
await server.start(Number(port) || undefined);
for (const { method, url, contentType, body } of routes) {
  const rule = method === 'GET' ? server.forGet(url) : server.forPut(url);
  // An explicit Content-Length: without one mockttp ends each answer by closing the connection.
  await rule.withHeaders({ authorization }).thenReply(200, body, {
    'content-type': contentType,
    'content-length': String(Buffer.byteLength(body)),
  });
}
// Its url says localhost, which may resolve to ::1; the load generator uses IPv4.
process.send?.({ ready: server.url.replace('localhost', '127.0.0.1') });
process.on('SIGTERM', () => server.stop().then(() => process.exit(0)));
