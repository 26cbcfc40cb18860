/** Placeholder until the connection page lands. */
export const ConnectPage = () => null;
