import { describe, expect, it } from "vitest";
import { grouped } from "../src/numbers.js";

describe("grouped", () => {
  it("writes what toLocaleString('en-US') writes", () => {
    const samples = [
      0,
      -0,
      1,
      7,
      12,
      999,
      1000,
      1001,
      12_345,
      100_000,
      999_999,
      1_000_000,
      123_456_789,
      2 ** 31,
      2 ** 53 - 1,
      -1,
      -1234,
      -1_000_000,
      0.5,
      1234.5,
      1234.5678,
      0.0004,
      12_345.0005,
      -0.0004,
      2.0005,
      99.9999,
      1_000_000.25,
      1e20,
      1e21,
      1.5e22,
      Number.NaN,
      Infinity,
      -Infinity,
    ];
    for (const n of samples) expect(grouped(n), String(n)).toBe(n.toLocaleString("en-US"));
  });

  it("agrees on every power of ten and its neighbours", () => {
    for (let p = 0; p <= 20; p++)
      for (const n of [10 ** p - 1, 10 ** p, 10 ** p + 1, -(10 ** p)])
        expect(grouped(n), String(n)).toBe(n.toLocaleString("en-US"));
  });
});
