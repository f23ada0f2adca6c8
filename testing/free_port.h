// A TCP port on 127.0.0.1 that was free a moment ago, for starting a
// process whose flag takes a fixed port (where 0 means "off", not "any").
// Test-only. Another process may take the port before the caller binds it;
// the caller then fails to listen, loudly. Aborts when no socket can be
// bound at all.
#ifndef GCUSHARE_TESTING_FREE_PORT_H_
#define GCUSHARE_TESTING_FREE_PORT_H_

namespace gcushare::testing {

int FreeTcpPort();

}  // namespace gcushare::testing

#endif  // GCUSHARE_TESTING_FREE_PORT_H_
