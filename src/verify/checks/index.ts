import type { Check } from '../check-kit.js';
import { CONTACT_CAP_CHECKS } from './contact-cap.js';
import { CONTACT_WRITE_CHECKS } from './contact-writes.js';
import { CONTENT_CHECKS } from './content.js';
import { AUTH_CHECKS, ERROR_CHECKS } from './errors.js';
import { FIELD_ERROR_CHECKS } from './field-errors.js';
import { FIELD_WRITE_CHECKS } from './field-writes.js';
import { FIELD_CHECKS } from './fields.js';
import { FORMAT_CHECKS } from './format.js';
import { LIST_CHECKS } from './lists.js';
import { STABILITY_CHECKS, STABILITY_WRITE_CHECKS } from './stability.js';

/** The conformance suite, in order, written from the service description (docs/fidelity.md). */
export const CHECKS: readonly Check[] = [
  ...AUTH_CHECKS,
  ...FORMAT_CHECKS,
  ...LIST_CHECKS,
  ...FIELD_CHECKS,
  ...CONTENT_CHECKS,
  ...STABILITY_CHECKS,
  ...ERROR_CHECKS,
  ...FIELD_ERROR_CHECKS,
  ...CONTACT_WRITE_CHECKS,
  ...FIELD_WRITE_CHECKS,
  ...STABILITY_WRITE_CHECKS,
  // Last: at the maximum, no later check could add a new contact.
  ...CONTACT_CAP_CHECKS,
];
