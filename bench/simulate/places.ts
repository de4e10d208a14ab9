import type { Random } from './random';

/**
 * Cities that together cover every UTC offset from -11 to +14, the half-hour and 45-minute ones, and
 * the daylight-saving rules of both hemispheres (US, EU, Chile, Australia, New Zealand, Chatham...).
 */
const ANCHORS: readonly [number, number][] = [
  [-14.28, -170.7],
  [21.31, -157.86],
  [61.22, -149.9],
  [34.05, -118.24],
  [33.45, -112.07],
  [39.74, -104.99],
  [19.43, -99.13],
  [41.88, -87.63],
  [40.71, -74.01],
  [43.65, -79.38],
  [-33.45, -70.67],
  [44.65, -63.57],
  [47.56, -52.71],
  [-23.55, -46.63],
  [64.18, -51.72],
  [37.74, -25.67],
  [14.72, -17.47],
  [51.51, -0.13],
  [48.86, 2.35],
  [6.52, 3.38],
  [52.52, 13.4],
  [30.04, 31.24],
  [-26.2, 28.05],
  [33.89, 35.5],
  [41.01, 28.98],
  [24.71, 46.68],
  [55.76, 37.62],
  [35.69, 51.39],
  [25.2, 55.27],
  [34.53, 69.17],
  [24.86, 67.0],
  [28.61, 77.21],
  [27.72, 85.32],
  [23.81, 90.41],
  [16.87, 96.2],
  [-6.21, 106.85],
  [3.14, 101.69],
  [-31.95, 115.86],
  [35.68, 139.69],
  [-34.93, 138.6],
  [-33.87, 151.21],
  [-22.28, 166.46],
  [-36.85, 174.76],
  [-43.95, -176.55],
  [-21.14, -175.2],
  [1.87, -157.4],
];

export interface Place {
  latitude: number;
  longitude: number;
}

/** Most mosques near one of the anchor cities, the rest anywhere between 45° S and 60° N. */
export function pickPlace(random: Random): Place {
  if (random.chance(0.7)) {
    const [latitude, longitude] = random.pick(ANCHORS);
    return {
      latitude: round(latitude + random.between(-0.3, 0.3)),
      longitude: round(clampLongitude(longitude + random.between(-0.3, 0.3))),
    };
  }
  return { latitude: round(random.between(-45, 60)), longitude: round(random.between(-180, 179.99)) };
}

const clampLongitude = (value: number) => Math.max(-180, Math.min(179.99, value));
const round = (value: number) => Math.round(value * 10_000) / 10_000;
