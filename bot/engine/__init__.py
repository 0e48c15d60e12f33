"""The platform-free core: plain data, ports, and the conversation engine."""
