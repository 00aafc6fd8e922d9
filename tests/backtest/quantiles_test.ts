import assert from "node:assert/strict";
import { tQuantile, Z975 } from "../../lib/backtest/_quantiles.ts";
import { NORMAL_TABLE, PS as GRID, T_TABLE } from "./_quantile_table.ts";

/** Relative difference, exact zeros compared absolutely. */
const rel = (got: number, want: number) =>
  want === 0 ? Math.abs(got) : Math.abs(got - want) / Math.abs(want);

Deno.test("tQuantile agrees with stdlib's to 1e-13 relative, 0.5 to 100,000 df, fractional df too", () => {
  assert.ok(T_TABLE.some(([df]) => df === 100_000) && T_TABLE.some(([df]) => df % 1 !== 0));
  const off: string[] = [];
  for (const [df, row] of T_TABLE) {
    GRID.forEach((p, i) => {
      const got = tQuantile(p, df);
      if (!(rel(got, row[i]) <= 1e-13)) off.push(`df ${df}, p ${p}: ${got} vs stdlib ${row[i]}`);
    });
  }
  assert.deepEqual(off, []);
});

Deno.test("tQuantile below 0.1 df: stdlib's to 1e-13 (1e-12 at 0.01 df), mpmath's where stdlib overflows", () => {
  // stdlib's quantile at [df, p]; below 0.1 df the quantile moves 1/df times the tail's
  // relative error, so stdlib's own figures differ from mpmath's by up to 1e-14 there
  const STDLIB: [number, number, number][] = [
    [0.01, 0.1, -3.960440137152415e+68],
    [0.01, 0.6, 246458794.80553955],
    [0.01, 0.975, 6.364181928399895e+128],
    [0.05, 0.001, -1.0876044676001917e+53],
    [0.05, 0.3, -3119.2191460329395],
    [0.05, 0.975, 1.1958337585475204e+25],
    [0.1, 0.001, -1.6044257056665575e+26],
    [0.1, 0.6, 1.512976170677857],
    [0.1, 0.975, 1682362288745.0037],
  ];
  for (const [df, p, want] of STDLIB) {
    const got = tQuantile(p, df);
    assert.ok(rel(got, want) <= (df < 0.05 ? 1e-12 : 1e-13), `df ${df}, p ${p}: ${got} vs ${want}`);
  }
  // past 1e154, where stdlib returns ±Infinity: mpmath 1.3.0 (50 digits, root of the
  // regularized incomplete beta in ln t); and beyond the largest double, Infinity
  for (
    const [df, p, want] of [[0.01, 0.001, -3.960440137152422e+268], [
      0.003,
      0.9,
      2.6795797959070878e+231,
    ]]
  ) {
    const got = tQuantile(p, df);
    assert.ok(rel(got, want) <= 1e-12, `df ${df}, p ${p}: ${got} vs ${want}`);
  }
  assert.equal(tQuantile(0.975, 0.001), Infinity);
  assert.equal(tQuantile(0.025, 0.001), -Infinity);
});

Deno.test("Z975 is the normal's 97.5 % quantile: the nearest double, two ulps from stdlib's", () => {
  // mpmath: 1.95996398454005423552…; a literal reads as its nearest double
  assert.equal(Z975, 1.95996398454005423552);
  assert.ok(rel(Z975, NORMAL_TABLE[GRID.indexOf(0.975)]) <= 1e-15);
});

/** Student's t quantiles in closed form at 1, 2 and 4 degrees of freedom. */
const CLOSED: Record<number, (p: number) => number> = {
  1: (p) => Math.tan(Math.PI * (p - 0.5)),
  2: (p) => (2 * p - 1) / Math.sqrt(2 * p * (1 - p)),
  4: (p) => {
    const a = 4 * p * (1 - p);
    const q = Math.cos(Math.acos(Math.sqrt(a)) / 3) / Math.sqrt(a);
    return Math.sign(p - 0.5) * 2 * Math.sqrt(q - 1);
  },
};

const PS = [0.001, 0.01, 0.025, 0.05, 0.1, 0.25, 0.4, 0.6, 0.75, 0.9, 0.95, 0.975, 0.99, 0.999];

Deno.test("tQuantile is exact to 1e-12 against the closed forms at 1, 2 and 4 degrees of freedom", () => {
  for (const [df, closed] of Object.entries(CLOSED)) {
    for (const p of PS) {
      const want = closed(p);
      const got = tQuantile(p, Number(df));
      assert.ok(
        Math.abs(got - want) <= 1e-12 * Math.abs(want),
        `df ${df}, p ${p}: ${got} vs ${want}`,
      );
    }
  }
});

Deno.test("tQuantile: symmetric, the normal's at large df, NaN outside its domain", () => {
  for (const df of [0.5, 3, 17.5, 250]) {
    for (const p of PS) {
      const [lo, hi] = [tQuantile(p, df), tQuantile(1 - p, df)];
      assert.ok(Math.abs(lo + hi) <= 1e-12 * Math.abs(hi), `df ${df}, p ${p}: ${lo} vs ${hi}`);
    }
  }
  // t(0.975, df) = z + (z³ + z)/(4 df) + …: at 1e9 df within 3e-9 of the normal's
  assert.ok(Math.abs(tQuantile(0.975, 1e9) - Z975) < 3e-9);
  for (
    const [p, df] of [[0.5, 0], [0.9, -1], [1.5, 3], [-0.1, 3], [NaN, 3], [0.9, NaN], [
      0.9,
      Infinity,
    ]]
  ) {
    assert.ok(Number.isNaN(tQuantile(p, df)), `p ${p}, df ${df}`);
  }
});
