import { InputError } from '../input-error.ts';

// Letters that Unicode does not decompose into a base letter plus accent.
const FOLD: Record<string, string> = { ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', đ: 'd', ł: 'l', þ: 'th' };

/** An entity's id from its name: lower-case words joined by hyphens ('Nordic Group' → 'nordic-group'). */
export function entityIdFrom(name: string): string {
  const id = name
    .toLowerCase()
    .replace(/[øæœßđłþ]/g, (c) => FOLD[c]!)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return id || 'entity';
}

const DOMAIN_RE = /^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/;

/**
 * 'Email domain allowed' (multiline text): one domain per line; commas and spaces also separate, a leading
 * '@' is dropped, case is folded, duplicates collapse. Stored one per line.
 */
export function parseEmailDomains(raw: string): string {
  const domains = [...new Set(raw.split(/[\s,;]+/).map((d) => d.trim().toLowerCase().replace(/^@/, '')).filter(Boolean))];
  const bad = domains.filter((d) => !DOMAIN_RE.test(d));
  if (bad.length) throw new InputError(`email_domain_allowed: not a domain name: ${bad.join(', ')}`);
  return domains.join('\n');
}
