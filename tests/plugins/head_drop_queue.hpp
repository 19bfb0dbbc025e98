#pragma once
// A queue discipline that lives in the test tree only, to prove that adding one
// takes one file pair and one registration line: "head_drop" makes room for an
// arriving packet by dropping the `head_drop_packets` oldest ones (push-out),
// where drop tail would drop the arrival.

#include "link/packet_fifo.hpp"
#include "link/queue_discipline.hpp"
#include "link/queue_discipline_entry.hpp"

namespace wmnsim::test {

struct HeadDropParams {
  int head_drop_packets = 1;  // dropped from the head per arrival into a full queue
};

class HeadDropQueue final : public link::QueueDiscipline {
 public:
  HeadDropQueue(link::QueueLimit limit, HeadDropParams params, DropSink& drops);
  std::size_t length_packets() const override { return fifo_.size(); }
  std::int64_t length_bytes() const override { return fifo_.bytes(); }

 private:
  link::EnqueueResult do_enqueue(PacketPtr& packet, Time now) override;
  PacketPtr do_dequeue(Time now) override;
  const Packet* do_peek() const override { return fifo_.front(); }
  bool full() const;

  link::QueueLimit limit_;
  HeadDropParams params_;
  link::PacketFifo fifo_;
};

// Its registry entry: registries.queue_disciplines.add(head_drop_entry()).
link::QueueDisciplineEntry head_drop_entry();

}  // namespace wmnsim::test
