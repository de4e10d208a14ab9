export { E2E_ADMIN, startServer, type RunningServer, type StartOptions } from './server';
export {
  apiToken,
  closeNotifications,
  findChromium,
  launchBrowser,
  screenshot,
  screenshotOnceDialogsShown,
  screenshotWithoutNotifications,
  settle,
  signIn,
  signInOnNextLoad,
  SCREEN_SIZES,
  SCREENSHOT_DIR,
} from './browser';
export { seedFailedCaptures, seedRecordingsLibrary } from './seed';
