/** Placeholder until the wallboard lands. */
export const WallboardPage = () => null;
