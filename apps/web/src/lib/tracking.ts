import { config } from './config';
import { onDeparture } from './personal-data';
import { getStoredConsent, setStoredConsent } from './storage';

/** The events the product reports (spec §7, §8). Never carries a token. */
export type TrackingEvent =
  | { name: 'login'; status: 'success' | 'error'; data?: unknown }
  | { name: 'logout'; status: 'success' | 'error'; data?: unknown }
  | { name: 'api'; status: 'error'; data?: unknown };

export type TrackingSink = (event: TrackingEvent) => void;

/** Does nothing: the default, so that nothing leaves the browser unless configured. */
const noopSink: TrackingSink = () => {};

function beaconSink(url: string): TrackingSink {
  return (event) => {
    const body = JSON.stringify({ ...event, at: new Date().toISOString() });
    if (typeof navigator.sendBeacon === 'function') navigator.sendBeacon(url, body);
  };
}

let sink: TrackingSink = config.trackingUrl ? beaconSink(config.trackingUrl) : noopSink;
let consent = getStoredConsent();
const listeners = new Set<() => void>();

// The consent was given by the person signed in: it goes with them (decision 0080), and the
// next person is not tracked until they agree. `forgetPerson` removes the stored choice.
onDeparture(() => {
  consent = false;
  for (const listener of listeners) listener();
});

export function configureTrackingSink(next: TrackingSink | null) {
  sink = next ?? noopSink;
}

export function hasTrackingConsent(): boolean {
  return consent;
}

export function setTrackingConsent(granted: boolean) {
  consent = granted;
  setStoredConsent(granted);
  for (const listener of listeners) listener();
}

export function subscribeTrackingConsent(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Sends an event only when the person agreed to it. */
export function track(event: TrackingEvent) {
  if (!consent) return;
  try {
    sink(event);
  } catch {
    // A broken sink must never break the product.
  }
}
