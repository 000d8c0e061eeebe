/** A path parameter as typed: wouter hands it over still percent-encoded (e.g. `alice%40acme.example`). */
export function routeParam(value: string | undefined): string {
  if (!value) return '';
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
