// Tests only: TUI facets against a real session host, over loopback and a real WebSocket.
export {};
