import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { localhostCertificateOnce } from '../../../src/certificate.js';
import { tlsPairProblem } from '../../../src/cli/tls-files.js';

// The --cert/--key pair is checked before listening, so that a pair that cannot be served is
// refused naming the flag and the file (OpenSSL's errors name neither).

const files = { cert: 'cert.pem', key: 'key.pem' };

describe('tlsPairProblem: a --cert/--key pair that cannot be served', () => {
  it('none for a pair that can be served', async () => {
    const { cert, key } = await localhostCertificateOnce();
    expect(tlsPairProblem(cert, key, files)).toBeUndefined();
  });

  it('a --cert that is not a certificate', async () => {
    const { key } = await localhostCertificateOnce();
    expect(tlsPairProblem(key, key, files)).toBe(
      "--cert cert.pem is not a PEM certificate: it should hold a '-----BEGIN CERTIFICATE-----' block.",
    );
  });

  it('a --key that is not a key', async () => {
    const { cert } = await localhostCertificateOnce();
    expect(tlsPairProblem(cert, 'my-machine\n', files)).toBe(
      "--key key.pem is not a PEM private key: it should hold a '-----BEGIN PRIVATE KEY-----' block (or RSA or EC PRIVATE KEY).",
    );
  });

  it.each([
    ['pkcs8', 'BEGIN ENCRYPTED PRIVATE KEY'],
    ['pkcs1', 'Proc-Type: 4,ENCRYPTED'],
  ])('a --key encrypted with a passphrase (%s), with how to decrypt it', async (type, marker) => {
    const { cert } = await localhostCertificateOnce();
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 1024,
      privateKeyEncoding: {
        type: type as 'pkcs8',
        format: 'pem',
        cipher: 'aes-256-cbc',
        passphrase: 'pw',
      },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    expect(privateKey).toContain(marker);
    expect(tlsPairProblem(cert, privateKey, files)).toBe(
      '--key key.pem is encrypted with a passphrase: give the key unencrypted (e.g. openssl pkey -in key.pem -out key.pem).',
    );
  });

  it('a --key that is not the certificate’s', async () => {
    const { cert } = await localhostCertificateOnce();
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string;
    expect(tlsPairProblem(cert, other, files)).toBe(
      '--key key.pem does not match --cert cert.pem: give the private key the certificate was made for.',
    );
  });

  it('a matching pair OpenSSL still refuses: its reason, after the flags and files', async () => {
    // A 512-bit RSA key: too small for OpenSSL's default security level.
    const selfsigned = createRequire(import.meta.url)('selfsigned') as {
      generate(attributes: object[], options: object): Promise<{ cert: string; private: string }>;
    };
    const small = await selfsigned.generate([{ name: 'commonName', value: 'small' }], {
      keySize: 512,
      algorithm: 'sha256',
    });
    expect(tlsPairProblem(small.cert, small.private, files)).toMatch(
      /^--cert cert\.pem with --key key\.pem cannot be served: .*ee key too small\.$/,
    );
  });
});
