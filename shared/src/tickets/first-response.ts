/** Spec 000 §4: the first-response time bucket, measured in minutes from creation. */
export function firstResponseBucket(createdAt: Date | string, firstResponseAt: Date | string | null): string | null {
  if (firstResponseAt === null) return null;
  const minutes = (new Date(firstResponseAt).getTime() - new Date(createdAt).getTime()) / 60_000;
  if (minutes < 60) return '< 1h';
  if (minutes < 240) return '< 4h';
  if (minutes < 1440) return '< 24h';
  if (minutes < 2880) return '< 48h';
  return `${Math.round(minutes / 60)}h`;
}
