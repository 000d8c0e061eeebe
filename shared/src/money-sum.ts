/**
 * Exact sums of checked money values (normalised decimal text, at most 12 integer and 12 decimal digits: validateRow)
 * in two doubles: whole currency units and 10^-12 fractions, each an integer that a double holds exactly. BigInt per
 * value made the ingest's rollups allocate three numbers per row (then the worker, not PostgreSQL, set the pace
 * of a 5M-row load); here only a sum past 2^53 whole units, which no real sum reaches, touches BigInt at all. The
 * result equals PostgreSQL's `numeric` sum of the same values (money-sum.test.ts checks it against BigInt sums).
 */
import { fromUnits12 } from './decimal.ts';

const UNIT = 1e12;
const UNIT_N = 1_000_000_000_000n;
/** Past this, adding one value's whole part (below 2^44: a checked value or the difference of three) plus a carry could leave the exact range of a double. */
const SAFE_WHOLE = 2 ** 53 - 2 ** 44;
const POW10 = Array.from({ length: 13 }, (_, i) => 10 ** i);

/**
 * One checked value split into whole units and a 10^-12 fraction, both with the value's sign; reused from row to row,
 * so reading a value allocates nothing.
 */
export class MoneyValue {
  whole = 0;
  frac = 0;

  /** Reads normalised decimal text (at most 12 integer and 12 decimal digits). */
  read(plain: string): this {
    const point = plain.indexOf('.');
    if (point < 0) {
      this.whole = +plain;
      this.frac = 0;
      return this;
    }
    this.whole = +plain.slice(0, point);
    const digits = plain.slice(point + 1);
    // fewer than 13 digits: below 10^12, and the product stays an integer below 2^53, so it is exact
    const frac = +digits * POW10[12 - digits.length];
    this.frac = plain.charCodeAt(0) === 45 /* - */ ? -frac : frac;
    return this;
  }

  /** Reads an exact number of 10^-12 units (|units| < 10^24). */
  readUnits(units: bigint): this {
    this.whole = Number(units / UNIT_N);
    this.frac = Number(units % UNIT_N);
    return this;
  }
}

export class MoneySum {
  private whole = 0;
  /** Kept within (-10^12, 10^12) by carrying into `whole`. */
  private frac = 0;
  /** Whole units moved out of `whole` before it left the exact range. */
  private big = 0n;

  /** Adds one value. */
  add(v: MoneyValue): this {
    this.addParts(v.whole, v.frac);
    return this;
  }

  /** Adds whole units and a fraction (|frac| < 10^12, |whole| < 2^44). */
  private addParts(whole: number, frac: number): void {
    let f = this.frac + frac;
    let w = this.whole + whole;
    if (f >= UNIT) {
      f -= UNIT;
      w += 1;
    } else if (f <= -UNIT) {
      f += UNIT;
      w -= 1;
    }
    this.frac = f;
    if (w > SAFE_WHOLE || w < -SAFE_WHOLE) {
      this.big += BigInt(w);
      w = 0;
    }
    this.whole = w;
  }

  /** Adds another sum (any size). */
  addSum(o: MoneySum): this {
    this.big += o.big;
    if (Math.abs(this.whole) + Math.abs(o.whole) > SAFE_WHOLE) {
      this.big += BigInt(this.whole) + BigInt(o.whole);
      this.whole = 0;
      this.addParts(0, o.frac);
    } else {
      this.addParts(o.whole, o.frac);
    }
    return this;
  }

  /** The sum in 10^-12 units. */
  units(): bigint {
    return (this.big + BigInt(this.whole)) * UNIT_N + BigInt(this.frac);
  }

  /** The sum as PostgreSQL prints a numeric(24,12) sum (12 decimals). */
  toString(): string {
    return fromUnits12(this.units());
  }

  isZero(): boolean {
    return this.whole === 0 && this.frac === 0 && this.big === 0n;
  }
}
