export { E2E_ADMIN, startServer, type RunningServer, type StartOptions } from './server';
export {
  closeNotifications,
  findChromium,
  launchBrowser,
  screenshot,
  screenshotOnceDialogsShown,
  screenshotWithoutNotifications,
  settle,
  signIn,
  SCREEN_SIZES,
  SCREENSHOT_DIR,
} from './browser';
export { seedFailedCaptures, seedRecordingsLibrary } from './seed';
