import { CalculationMethod as Methods, HighLatitudeRule, type CalculationParameters, type Coordinates } from 'adhan';
import type { CalculationMethod } from '../../../contract/mosques';

/**
 * The calculation method a mosque uses when it names none: the authority most mosques of its
 * country follow. Malaysia, Indonesia and Brunei use JAKIM's and Kemenag's 20°/18° angles, which are
 * adhan's Singapore method (MUIS uses the same angles).
 */
const METHOD_BY_COUNTRY: Record<string, CalculationMethod> = {
  SA: 'UmmAlQura',
  US: 'NorthAmerica',
  CA: 'NorthAmerica',
  PK: 'Karachi',
  IN: 'Karachi',
  BD: 'Karachi',
  AF: 'Karachi',
  EG: 'Egyptian',
  AE: 'Dubai',
  QA: 'Qatar',
  KW: 'Kuwait',
  SG: 'Singapore',
  MY: 'Singapore',
  ID: 'Singapore',
  BN: 'Singapore',
  TR: 'Turkey',
  IR: 'Tehran',
};
export const FALLBACK_METHOD: CalculationMethod = 'MuslimWorldLeague';
/** Above this latitude (either hemisphere) twilight can last all night in summer. */
export const HIGH_LATITUDE_DEGREES = 48;

export function defaultMethodFor(countryCode: string | null | undefined): CalculationMethod {
  return (countryCode && METHOD_BY_COUNTRY[countryCode.toUpperCase()]) || FALLBACK_METHOD;
}

/**
 * adhan's parameters for a method at a place. Above 48° the night is split by the seventh-of-the-night
 * rule (adhan's recommendation), so Fajr and Isha exist on summer nights; Dhuhr is unaffected.
 */
export function parametersFor(method: CalculationMethod, coordinates: Coordinates): CalculationParameters {
  const parameters = Methods[method]();
  parameters.highLatitudeRule =
    Math.abs(coordinates.latitude) > HIGH_LATITUDE_DEGREES
      ? HighLatitudeRule.SeventhOfTheNight
      : HighLatitudeRule.MiddleOfTheNight;
  return parameters;
}
