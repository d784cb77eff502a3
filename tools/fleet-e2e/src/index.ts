// Tests only: the session directory across a coordinator, a session host and presentations, over loopback and a real WebSocket.
export {};
