import { useCallback, useEffect, useRef, useState } from 'react';
import { extractCoordinates, geocode, mosqueErrorMessage } from '../../api/config';
import { containsMapsLink } from '../../lib/maps-link';
import type { MosqueFormValues } from './mosque-form';

/** Typing pauses this long before a link is read or typed coordinates are looked up. */
export const LINK_SETTLE_MS = 400;
export const COORDINATES_SETTLE_MS = 700;

type Patch = Partial<MosqueFormValues>;

/** Why a lookup gave nothing, shown beside its field (the API's own words when it gave a reason). */
export const LOOKUP_MESSAGES = {
  linkFailed: 'The map link could not be resolved',
  placeFailed: 'The place could not be looked up',
  noTimezone: 'No time zone was found for these coordinates: type one',
} as const;

/**
 * The map link field's automatic lookups (docs/reference.md sections 2 and 5, Map link): as soon as the link field holds
 * a maps link its coordinates and time zone are read; once coordinates are known (read, or typed in),
 * city, district and country are filled in by geocoding. A lookup that fails keeps its reason (`linkProblem`,
 * `placeProblem`, `timezoneProblem`) for the form to show beside the field, so nothing fails silently; the next lookup clears it.
 * A newer lookup supersedes an older one still under way.
 */
export function useCoordinateLookup(apply: (patch: Patch) => void) {
  const [extracting, setExtracting] = useState(false);
  const [geocoding, setGeocoding] = useState(false);
  const [linkProblem, setLinkProblem] = useState<string | null>(null);
  const [placeProblem, setPlaceProblem] = useState<string | null>(null);
  const [timezoneProblem, setTimezoneProblem] = useState<string | null>(null);
  const generation = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      clearTimeout(timer.current);
    };
  }, []);

  const schedule = (delay: number, run: (isCurrent: () => boolean) => Promise<void>) => {
    clearTimeout(timer.current);
    const mine = ++generation.current;
    const isCurrent = () => mounted.current && generation.current === mine;
    timer.current = setTimeout(() => void run(isCurrent), delay);
    return isCurrent;
  };

  const fillPlace = useCallback(
    async (latitude: number, longitude: number, isCurrent: () => boolean, timezoneIfEmpty: boolean) => {
      setGeocoding(true);
      setPlaceProblem(null);
      setTimezoneProblem(null);
      try {
        const place = await geocode({ latitude, longitude });
        if (!isCurrent()) return;
        const patch: Patch = {};
        if (place.city) patch.city = place.city;
        if (place.district) patch.district = place.district;
        if (place.country) patch.country = place.country;
        apply(timezoneIfEmpty && place.timezone ? { ...patch, timezone: place.timezone } : patch);
        if (timezoneIfEmpty && !place.timezone) setTimezoneProblem(LOOKUP_MESSAGES.noTimezone);
      } catch (error) {
        if (isCurrent()) setPlaceProblem(mosqueErrorMessage(error, LOOKUP_MESSAGES.placeFailed));
      } finally {
        if (mounted.current) setGeocoding(false);
      }
    },
    [apply],
  );

  /** The link field changed: read its coordinates when it holds a maps link. */
  const linkChanged = (text: string) => {
    setLinkProblem(null);
    setPlaceProblem(null);
    setTimezoneProblem(null);
    if (!containsMapsLink(text)) {
      clearTimeout(timer.current);
      generation.current += 1;
      setExtracting(false);
      return;
    }
    setExtracting(true);
    schedule(LINK_SETTLE_MS, async (isCurrent) => {
      try {
        const result = await extractCoordinates(text.trim());
        if (!isCurrent()) return;
        if (!result.success || result.latitude === null || result.longitude === null) {
          setLinkProblem(result.error ?? LOOKUP_MESSAGES.linkFailed);
          return;
        }
        apply({
          latitude: String(result.latitude),
          longitude: String(result.longitude),
          ...(result.timezone_guess ? { timezone: result.timezone_guess } : {}),
        });
        setExtracting(false);
        await fillPlace(result.latitude, result.longitude, isCurrent, !result.timezone_guess);
      } catch (error) {
        if (isCurrent()) setLinkProblem(mosqueErrorMessage(error, LOOKUP_MESSAGES.linkFailed));
      } finally {
        if (isCurrent()) setExtracting(false);
      }
    });
  };

  /** Coordinates were typed: once both are valid, look their place up. */
  const coordinatesChanged = (latitude: number | null, longitude: number | null) => {
    setPlaceProblem(null);
    setTimezoneProblem(null);
    if (
      latitude === null ||
      longitude === null ||
      Number.isNaN(latitude) ||
      Number.isNaN(longitude) ||
      Math.abs(latitude) > 90 ||
      Math.abs(longitude) > 180
    ) {
      clearTimeout(timer.current);
      generation.current += 1;
      return;
    }
    schedule(COORDINATES_SETTLE_MS, (isCurrent) => fillPlace(latitude, longitude, isCurrent, true));
  };

  return {
    extracting,
    geocoding,
    linkProblem,
    placeProblem,
    timezoneProblem,
    linkChanged,
    coordinatesChanged,
  };
}
