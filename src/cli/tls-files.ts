import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { createSecureContext } from 'node:tls';

/** The files as the command line named them, for messages. */
export interface TlsFileNames {
  readonly cert: string;
  readonly key: string;
}

const ENCRYPTED_PEM = /-----BEGIN ENCRYPTED PRIVATE KEY-----|^Proc-Type: 4,ENCRYPTED\r?$/m;

/**
 * What is wrong with the `--cert`/`--key` pair, said with the flag and the file, or undefined when
 * it can be served. Checked before listening: OpenSSL's own errors ("PEM routines::no start line")
 * name neither the flag nor the file.
 */
export function tlsPairProblem(cert: string, key: string, files: TlsFileNames): string | undefined {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
  } catch {
    return `--cert ${files.cert} is not a PEM certificate: it should hold a '-----BEGIN CERTIFICATE-----' block.`;
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(key);
  } catch (error) {
    // Node 20 on OpenSSL 3 says ERR_OSSL_CRYPTO_INTERRUPTED_OR_CANCELLED for an encrypted key,
    // not ERR_MISSING_PASSPHRASE: the PEM's own markers say it (PKCS#8, and PKCS#1's header).
    if (
      (error as NodeJS.ErrnoException).code === 'ERR_MISSING_PASSPHRASE' ||
      ENCRYPTED_PEM.test(key)
    )
      return `--key ${files.key} is encrypted with a passphrase: give the key unencrypted (e.g. openssl pkey -in ${files.key} -out key.pem).`;
    return `--key ${files.key} is not a PEM private key: it should hold a '-----BEGIN PRIVATE KEY-----' block (or RSA or EC PRIVATE KEY).`;
  }
  if (!certificate.checkPrivateKey(privateKey))
    return `--key ${files.key} does not match --cert ${files.cert}: give the private key the certificate was made for.`;
  try {
    createSecureContext({ cert, key });
  } catch (error) {
    // A pair OpenSSL still refuses (a key too small for its security level, say): its reason,
    // after what it is about.
    return `--cert ${files.cert} with --key ${files.key} cannot be served: ${(error as Error).message}.`;
  }
  return undefined;
}
