// autocannon ships no types; only what the benchmarks use.
declare module 'autocannon' {
  interface Result {
    latency: { p50: number; p99: number; average: number };
    requests: { average: number; total: number };
    non2xx: number;
    errors: number;
  }
  interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
  }
  export default function autocannon(opts: Options): Promise<Result>;
}
