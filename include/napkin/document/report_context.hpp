// SPDX-License-Identifier: Apache-2.0
// napkin/document/report_context.hpp — report_context, where a report was made (host, rank, device), on its
// own: measurements and the monitor's report carry it without the document machinery (document.hpp, which
// includes this header). Plain C++17.
#pragma once

#include "napkin/config.hpp"

#include <cstdint>
#include <optional>
#include <string>

NAPKIN_BEGIN_NAMESPACE

// Where a document was made: the process (host, rank of a parallel job) and the device. Every field is
// optional and left out of the JSON when unknown.
struct report_context {
  std::optional<std::string> host;
  std::optional<std::int64_t> rank;        // in the job (MPI's, or the launcher's environment)
  std::optional<std::int64_t> world_size;  // ranks in the job
  std::optional<std::int64_t> local_rank;  // on this host
  std::optional<std::int64_t> device_index;
  std::optional<std::string> device_name;
  std::optional<std::string> device_pci_bus_id;  // "0000:19:00.0"
  std::optional<std::string> device_uuid;        // "GPU-8c0b...", as nvidia-smi -L prints it
  bool empty() const {
    return !host && !rank && !world_size && !local_rank && !device_index && !device_name && !device_pci_bus_id &&
           !device_uuid;
  }
};

NAPKIN_END_NAMESPACE
