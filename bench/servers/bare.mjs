// The floor: fastify + @fastify/basic-auth answering fixed bytes, nothing else.
import basicAuth from '@fastify/basic-auth';
import Fastify from 'fastify';

const [port = '0'] = process.argv.slice(2);
const { username, password, routes } = JSON.parse(process.env.BARE_ROUTES);
const app = Fastify();
await app.register(basicAuth, {
  validate(user, pass, _request, _reply, done) {
    done(user === username && pass === password ? undefined : new Error('Unauthorized'));
  },
});
app.addHook('onRequest', app.basicAuth);
for (const { method, url, answers } of routes) {
  // `answers` maps an Accept value to [contentType, body]; a string compare stands in for negotiation.
  const fallback = answers['application/json'];
  app.route({
    method,
    url,
    handler: (request, reply) => {
      const [contentType, body] = answers[request.headers.accept] ?? fallback;
      return reply.header('content-type', contentType).send(body);
    },
  });
}
const url = await app.listen({ port: Number(port), host: '127.0.0.1' });
process.send?.({ ready: url });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
