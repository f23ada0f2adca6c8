// --memory-unit, as every daemon that publishes card memory takes it
// (gcushare-device-plugin, gcushare-dra-driver): checked while parsing, so
// anything but 1, 0.1, 0.01 and 0.001 stops the program (exit code 2) with a
// message listing those.
//
// Thread-compatible; call from main's thread.
#ifndef GCUSHARE_CONTRACT_MEMORY_UNIT_FLAG_H_
#define GCUSHARE_CONTRACT_MEMORY_UNIT_FLAG_H_

#include <CLI/CLI.hpp>
#include <string>

namespace gcushare::contract {

// Adds --memory-unit writing into `unit` (which must outlive parsing), with
// `help` as its description.
void AddMemoryUnitFlag(CLI::App& app, std::string* unit,
                       const std::string& help);

}  // namespace gcushare::contract

#endif  // GCUSHARE_CONTRACT_MEMORY_UNIT_FLAG_H_
