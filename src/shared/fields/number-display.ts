import type { DatasetKind } from './field-types';

/**
 * How a numeric field is shown on screen: grids, the selection's sum and average, the record view.
 * The service sends every number as text and does not fix their precision, so the display does:
 * - money (FOB, CIF, freight, insurance, statistical value) with 2 decimals;
 * - unit price with 2 to 4 (a price per piece is often a fraction of a cent);
 * - weights in 3 (the service writes kilograms to the gram);
 * - quantity with up to 3, none when whole (its unit may be pieces or kilograms);
 * - counts (containers, packages, item number, TEUs, shipments) as whole numbers;
 * - codes and calendar parts (year, month, firm type) without thousands separators.
 * Thousands are grouped with commas (en-US), as everywhere else in the app.
 */
export interface NumberDisplay {
  minDecimals: number;
  maxDecimals: number;
  grouped: boolean;
}

export const MONEY: NumberDisplay = { minDecimals: 2, maxDecimals: 2, grouped: true };
export const PRICE: NumberDisplay = { minDecimals: 2, maxDecimals: 4, grouped: true };
export const WEIGHT: NumberDisplay = { minDecimals: 3, maxDecimals: 3, grouped: true };
export const QUANTITY: NumberDisplay = { minDecimals: 0, maxDecimals: 3, grouped: true };
export const COUNT: NumberDisplay = { minDecimals: 0, maxDecimals: 0, grouped: true };
export const CODE: NumberDisplay = { minDecimals: 0, maxDecimals: 0, grouped: false };
/** A number of no known field (an extra column, a computed figure): as precise as it is, grouped. */
export const PLAIN_NUMBER: NumberDisplay = { minDecimals: 0, maxDecimals: 6, grouped: true };

const SHIPMENT_DISPLAY: Readonly<Record<string, NumberDisplay>> = {
  fobValue: MONEY,
  usdFob: MONEY,
  cifValue: MONEY,
  usdCif: MONEY,
  freightAmount: MONEY,
  insuranceAmount: MONEY,
  statisticalValueUsd: MONEY,
  unitPrice: PRICE,
  grossWeight: WEIGHT,
  netWeight: WEIGHT,
  quantity: QUANTITY,
  containerCount: COUNT,
  packageAmount: COUNT,
  itemNo: COUNT,
  totalTeus: COUNT,
  year: CODE,
  month: CODE,
};

const FIRM_DISPLAY: Readonly<Record<string, NumberDisplay>> = {
  shipment_count: COUNT,
  firm_type: CODE,
};

/** The display of a numeric field of a kind; undefined for a field that is not a number. */
export function numberDisplayOf(kind: DatasetKind, field: string): NumberDisplay | undefined {
  return (kind === 'shipments' ? SHIPMENT_DISPLAY : FIRM_DISPLAY)[field];
}

const formatters = new Map<string, Intl.NumberFormat>();

function formatterFor(d: NumberDisplay): Intl.NumberFormat {
  const key = `${d.minDecimals}/${d.maxDecimals}/${d.grouped}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat('en-US', {
      minimumFractionDigits: d.minDecimals,
      maximumFractionDigits: d.maxDecimals,
      useGrouping: d.grouped,
    });
    formatters.set(key, f);
  }
  return f;
}

/**
 * A number as the display says. A count that is not whole keeps its fraction (up to 3 decimals)
 * rather than being rounded into a different count.
 */
export function formatNumber(value: number, display: NumberDisplay): string {
  if (display.maxDecimals === 0 && !Number.isInteger(value)) {
    return formatterFor({ ...display, maxDecimals: 3 }).format(value);
  }
  const text = formatterFor(display).format(value);
  // Intl writes a rounded-away negative as "-0.00": a sign on nothing is noise.
  return /^-[0.,]*$/.test(text) ? text.slice(1) : text;
}

/**
 * The display for a figure made of several fields' values (a selection's sum): the most decimals any
 * of them shows, grouped; no decimals for whole counts alone.
 */
export function combinedDisplay(displays: readonly NumberDisplay[]): NumberDisplay {
  if (displays.length === 0) return PLAIN_NUMBER;
  return {
    minDecimals: Math.max(...displays.map((d) => d.minDecimals)),
    maxDecimals: Math.max(...displays.map((d) => d.maxDecimals)),
    grouped: true,
  };
}
