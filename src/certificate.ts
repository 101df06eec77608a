import { createRequire } from 'node:module';
import { isIP } from 'node:net';

export interface Certificate {
  readonly key: string;
  readonly cert: string;
}

// Making a key pair is the slowest step of listen(), and every fake in a process can serve the
// same certificate, so each one made (per set of extra names) is kept for the life of the process.
const certificates = new Map<string, Promise<Certificate>>();

/**
 * A self-signed certificate for localhost, 127.0.0.1 and ::1, and any `extraNames` (host names or
 * IP addresses, e.g. a Docker Compose service name), made once per process and set of names.
 */
export function localhostCertificateOnce(extraNames: readonly string[] = []): Promise<Certificate> {
  const names = [...new Set(extraNames.map((name) => name.toLowerCase()))].sort();
  const key = names.join(',');
  let certificate = certificates.get(key);
  if (!certificate) {
    certificate = makeLocalhostCertificate(names).catch((error: unknown) => {
      certificates.delete(key);
      throw error;
    });
    certificates.set(key, certificate);
  }
  return certificate;
}

// selfsigned's dependencies install global polyfills that slowed every request of the process by
// some 15 % (measured against a bare fastify server), so the certificate is made in a worker
// thread, whose globals are its own.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
require(workerData.selfsigned)
  .generate(workerData.attributes, workerData.options)
  .then((pems) => parentPort.postMessage({ key: pems.private, cert: pems.cert }))
  .catch((error) => parentPort.postMessage({ error: String(error && error.stack || error) }));
`;

async function makeLocalhostCertificate(extraNames: readonly string[]): Promise<Certificate> {
  // Loaded here: a sandbox over plain HTTP, or with its own certificate, never needs it.
  const { Worker } = await import('node:worker_threads');
  const notBeforeDate = new Date(Date.now() - 60 * 60 * 1000);
  const notAfterDate = new Date(notBeforeDate.getTime() + 825 * 24 * 60 * 60 * 1000);
  const workerData = {
    selfsigned: createRequire(import.meta.url).resolve('selfsigned'),
    attributes: [{ name: 'commonName', value: 'fake-marketing-server localhost' }],
    options: {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate,
      notAfterDate,
      extensions: [
        // A CA flag lets strict clients (curl, Java, Python) take this very certificate as the
        // trust anchor they are given with --cacert / a truststore.
        { name: 'basicConstraints', cA: true, critical: true },
        { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
            { type: 7, ip: '::1' },
            ...extraNames.map((name) =>
              isIP(name) ? { type: 7, ip: name } : { type: 2, value: name },
            ),
          ],
        },
      ],
    },
  };
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData });
    worker.once('message', (message: Certificate & { error?: string }) => {
      void worker.terminate();
      if (message.error)
        reject(new Error(`could not make the localhost certificate: ${message.error}`));
      else resolve({ key: message.key, cert: message.cert });
    });
    worker.once('error', reject);
  });
}
