// The container's HEALTHCHECK: is the sandbox answering on its port? Any answer below 500 counts
// (401 included: with an admin token the check has none), and the certificate is not checked: this
// runs inside the container, against the fake's own address.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

const port = Number(process.env.FMS_PORT ?? 8443);
const https = !['1', 'true', 'yes'].includes((process.env.FMS_HTTP ?? '').toLowerCase());
const request = (https ? httpsRequest : httpRequest)(
  { host: '127.0.0.1', port, path: '/__admin/health', rejectUnauthorized: false, timeout: 1500 },
  (response) => {
    response.resume();
    process.exit((response.statusCode ?? 500) < 500 ? 0 : 1);
  },
);
request.on('timeout', () => request.destroy(new Error('timeout')));
request.on('error', () => process.exit(1));
request.end();
