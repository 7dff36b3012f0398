/** An amount of money; what the model sees is `{ amount, currency }`. */
export class Money {
  constructor(
    public amount: number,
    public currency: string,
  ) {}

  static sum(values: readonly Money[], currency = "USD"): Money {
    return new Money(round2(values.reduce((total, m) => total + m.amount, 0)), currency);
  }
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
