export { E2E_ADMIN, startServer, type RunningServer, type StartOptions } from './server';
export { closeNotifications, findChromium, launchBrowser, screenshot, signIn, SCREEN_SIZES, SCREENSHOT_DIR } from './browser';
