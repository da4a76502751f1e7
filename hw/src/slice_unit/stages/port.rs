//! The unit's ports: the request port into the accept stage and the queue's push, and the
//! response FIFO's head onto the response port.

use super::*;

/// s0: the request port through [`Accept`] into the queue's push.
pub(super) enum AcceptWiring {}

impl Section<AcceptWiring> for SliceUnit {
    #[hdl_gen]
    fn update(&mut self) {
        // ==========================================================================
        // s0 accept (`Accept`): the request decoded into the queue's push.
        // ==========================================================================
        self.accept.req_valid.next = self.req_valid.val();
        self.accept.req_op.next = self.req_op.val();
        self.accept.req_addr.next = self.req_addr.val();
        self.accept.req_data.next = self.req_data.val();
        self.accept.req_id.next = self.req_id.val();
        self.accept.req_mask.next = self.req_mask.val();
        // (One statement per port: Verilator orders this block's statements in groups, and
        // one that reads `push_ready` and writes `push_valid` would be a loop through the queue.)
        self.req_ready.next = self.accept.req_ready.val();
        self.accept.push_ready_nx.next = self.queue.push_ready_nx.val();
        self.queue.push_valid.next = self.accept.push_valid.val();
        self.queue.push_line.next = self.accept.push_line.val();
        self.queue.push_line_nx.next = self.accept.push_line_nx.val();
        self.queue.push_nx_keep.next = self.accept.push_nx_keep.val();
        self.queue.push_ordered.next = self.accept.push_ordered.val();
        self.queue.push_wait.next = self.accept.push_wait.val();
        self.queue.push_payload.next = self.accept.push_payload.val();
        self.queue.push_key.next = self.accept.push_key.val();
        self.queue.push_key_nx.next = self.accept.push_key_nx.val();
        self.queue.push_words.next = self.accept.push_words.val();
        self.queue.push_words_nx.next = self.accept.push_words_nx.val();
        self.cov_bus.back_to_back_line.next = self.queue.cov_back_to_back.val();
    }
}

/// The response FIFO's head on the response port; the coverage events of the port.
pub(super) enum ResponsePort {}

impl Section<ResponsePort> for SliceUnit {
    #[hdl_gen]
    fn update(&mut self) {
        // ==========================================================================
        // Response port.
        // ==========================================================================
        self.rsp_fifo.out_ready.next = self.rsp_ready.val();
        self.rsp_valid.next = self.rsp_fifo.out_valid.val();
        self.rsp_id.next = self.rsp_fifo.out_entry.val().get_bits::<ID_WIDTH>(0);
        self.rsp_data.next = self.rsp_fifo.out_entry.val().get_bits::<128>(self.r_data.val().index());
        self.rsp_status.next = self.rsp_fifo.out_entry.val().get_bits::<STATUS_WIDTH>(self.r_status.val().index());
        self.cov_bus.rsp_misaligned.next = self.rsp_fire.val() && (self.rsp_status.val() == self.status_mis.val());
        self.cov_bus.rsp_out_of_range.next = self.rsp_fire.val() && (self.rsp_status.val() == self.status_oor.val());
        self.cov_bus.rsp_stall.next = self.rsp_fifo.out_valid.val() && !self.rsp_ready.val();
        self.cov_bus.reset_in_flight.next = self.reset.val() && self.credit.busy.val();
        self.cov.next = self.cov_bus.cov.val();
    }
}
