// mockttp (HTTP Toolkit's mock server) serving the same bytes for the same route.
import { getLocal } from '../peers/node_modules/mockttp/dist/main.js';

const [port = '0'] = process.argv.slice(2);
const { authorization, routes } = JSON.parse(process.env.PEER_ROUTES);
const server = getLocal();
await server.start(Number(port) || undefined);
for (const { method, url, contentType, body } of routes) {
  const rule = method === 'GET' ? server.forGet(url) : server.forPut(url);
  await rule.withHeaders({ authorization }).thenReply(200, body, { 'content-type': contentType });
}
process.send?.({ ready: server.url });
process.on('SIGTERM', () => server.stop().then(() => process.exit(0)));
