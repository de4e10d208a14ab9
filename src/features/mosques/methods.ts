import type { CalculationMethod } from '../../../contract/mosques';

/** adhan's calculation methods by the names operators know them by. */
export const METHOD_LABELS: Record<CalculationMethod, string> = {
  MuslimWorldLeague: 'Muslim World League',
  Egyptian: 'Egyptian General Authority of Survey',
  Karachi: 'University of Islamic Sciences, Karachi',
  UmmAlQura: 'Umm al-Qura, Makkah',
  Dubai: 'Dubai',
  MoonsightingCommittee: 'Moonsighting Committee',
  NorthAmerica: 'ISNA (North America)',
  Kuwait: 'Kuwait',
  Qatar: 'Qatar',
  Singapore: 'Singapore',
  Tehran: 'Institute of Geophysics, Tehran',
  Turkey: 'Diyanet, Turkey',
};

/** A prayer time record's method: an adhan method, or `Fixed` when the mosque's fixed Jumu'ah time was used. */
export function methodLabel(method: string): string {
  if (method === 'Fixed') return "Fixed Jumu'ah time";
  return (METHOD_LABELS as Record<string, string>)[method] ?? method;
}
