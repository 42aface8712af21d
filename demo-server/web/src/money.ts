/**
 * Cents as the shop writes them: South African English, as the drop-in's pay button does for rands
 * ("R 149,00"), so the cart's total and "Pay R 149,00" read the same.
 */
export const money = (cents: number, currency: string): string =>
  new Intl.NumberFormat('en-ZA', { style: 'currency', currency }).format(cents / 100);
