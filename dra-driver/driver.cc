#include "dra-driver/driver.h"

#include <spdlog/spdlog.h>

#include <chrono>

namespace gcushare::dra {

Driver::Driver(DriverOptions options)
    : options_(std::move(options)),
      v1_(options_.claims),
      v1beta1_(options_.claims),
      health_service_(&reports_),
      registration_(options_.driver_name, options_.paths.service_socket,
                    [this](const RegistrationVerdict& verdict) {
                      registered_ = verdict.registered;
                      if (!verdict.registered && !refused_.exchange(true) &&
                          options_.on_refused) {
                        options_.on_refused(verdict.error);
                      }
                    }),
      service_server_(options_.paths.service_socket,
                      {&v1_, &v1beta1_, &health_service_}),
      registration_server_(options_.paths.registration_socket,
                           {&registration_}) {}

Driver::~Driver() { Stop(); }

Status Driver::Start() {
  OnInventory(options_.health->Current());
  subscription_ = options_.health->Subscribe(
      [this](const efml::Inventory& inventory, const std::vector<uint32_t>&) {
        OnInventory(inventory);
      });
  subscribed_ = true;
  if (Status s = service_server_.Start(); !s.ok()) {
    Stop();
    return s;
  }
  if (Status s = registration_server_.Start(); !s.ok()) {
    Stop();
    return s;
  }
  spdlog::info("driver {} waits for the kubelet on {}", options_.driver_name,
               options_.paths.registration_socket);
  return OkStatus();
}

void Driver::Stop() {
  if (subscribed_) {
    options_.health->Unsubscribe(subscription_);
    subscribed_ = false;
  }
  registration_server_.Stop();
  reports_.Close();
  service_server_.Stop();
}

void Driver::OnInventory(const efml::Inventory& inventory) {
  const int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                          options_.clock->Now().time_since_epoch())
                          .count();
  reports_.Publish(std::make_shared<const v1alpha1::NodeWatchResourcesResponse>(
      BuildHealthReport(inventory, options_.node_name, now)));
  if (options_.on_inventory) options_.on_inventory(inventory);
}

}  // namespace gcushare::dra
