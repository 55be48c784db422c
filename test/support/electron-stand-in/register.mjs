// @ts-check
/** `node --import <this file>`: every import of 'electron' in the process gets the stand-in. */
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
