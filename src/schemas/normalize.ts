/**
 * How text is compared where the API compares it case-insensitively
 * (CONTRACT C3.11): emails, company names and domains are stored beside
 * their original in this form and filtered on it.
 */

export function normalizeEmail(email: string): string {
  return email.toLowerCase();
}

export function normalizeText(text: string): string {
  return text.toLowerCase();
}
