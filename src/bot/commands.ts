import { LANGUAGES, type Language, translate } from '../i18n/catalogue.ts';

/** The commands in the menu beside the text field, in the order shown; each has a `cmd-…` text. */
export const COMMANDS = [
  'start',
  'new',
  'giveaways',
  'draw',
  'my',
  'language',
  'plan',
  'newkey',
  'keys',
  'revoke',
  'post',
  'cancel',
  'help',
] as const;

export function commandList(language: Language) {
  return COMMANDS.map((command) => ({ command, description: translate(language, `cmd-${command}`) }));
}

/** setMyCommands calls: English for everyone, and each other language for its language_code. */
export function commandMenus() {
  return LANGUAGES.map((language) => ({
    commands: commandList(language),
    ...(language === 'en' ? {} : { language_code: language }),
  }));
}
