# An os-ken application for osken_groups_meters.sh: once a switch is up
# (MAIN_DISPATCHER) it programs groups (ALL, SELECT with weights,
# INDIRECT), meters (a DROP band in kbps; DROP and DSCP_REMARK bands in
# pktps with burst and stats) and three flows naming them, adds one meter
# twice, and reads GROUP_DESC, GROUP, GROUP_FEATURES, METER_CONFIG, METER
# and METER_FEATURES back.  Then it deletes meter 2 and group 3 and reads
# again: meter 2's two flows must be gone, the one that asked told so by
# FLOW_REMOVED (reason DELETE in 1.3).  Each datapath's verdict is one
# JSON line in $OSKEN_RESULT: {"dpid": N, "errors": [...]}, empty when
# every value read back is what was programmed.
import json
import os

from os_ken.base import app_manager
from os_ken.controller import ofp_event
from os_ken.controller.handler import MAIN_DISPATCHER
from os_ken.controller.handler import set_ev_cls
from os_ken.ofproto import ofproto_v1_3

FLOW_A, FLOW_B, FLOW_C = 0xA, 0xB, 0xC


def single(body):
    return body[0] if isinstance(body, list) else body


class GroupsMeters(app_manager.OSKenApp):
    OFP_VERSIONS = [ofproto_v1_3.OFP_VERSION]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.dps = {}

    def state(self, dp):
        return self.dps.setdefault(dp.id, {"phase": 1, "errors": [],
                                           "of_errors": [], "removed": []})

    def fail(self, dp, what):
        self.state(dp)["errors"].append(what)

    @set_ev_cls(ofp_event.EventOFPStateChange, MAIN_DISPATCHER)
    def up(self, ev):
        dp = ev.datapath
        if dp is None or dp.id is None:
            return
        self.state(dp)
        self.program(dp)
        self.read(dp, final=False)

    def program(self, dp):
        ofp, p = dp.ofproto, dp.ofproto_parser
        out = p.OFPActionOutput
        send = dp.send_msg
        send(p.OFPGroupMod(dp, ofp.OFPGC_ADD, ofp.OFPGT_ALL, 1, [
            p.OFPBucket(actions=[out(1)]), p.OFPBucket(actions=[out(2)])]))
        send(p.OFPGroupMod(dp, ofp.OFPGC_ADD, ofp.OFPGT_SELECT, 2, [
            p.OFPBucket(weight=10, actions=[out(1)]),
            p.OFPBucket(weight=20, actions=[out(2)])]))
        send(p.OFPGroupMod(dp, ofp.OFPGC_ADD, ofp.OFPGT_INDIRECT, 3, [
            p.OFPBucket(actions=[out(3)])]))
        send(p.OFPMeterMod(dp, ofp.OFPMC_ADD, ofp.OFPMF_KBPS, 1,
                           [p.OFPMeterBandDrop(rate=1000)]))
        send(p.OFPMeterMod(
            dp, ofp.OFPMC_ADD,
            ofp.OFPMF_PKTPS | ofp.OFPMF_BURST | ofp.OFPMF_STATS, 2,
            [p.OFPMeterBandDrop(rate=100, burst_size=10),
             p.OFPMeterBandDscpRemark(rate=50, burst_size=5,
                                      prec_level=1)]))
        # Meter 1 again: METER_MOD_FAILED/METER_EXISTS.
        send(p.OFPMeterMod(dp, ofp.OFPMC_ADD, ofp.OFPMF_KBPS, 1,
                           [p.OFPMeterBandDrop(rate=5)]))
        apply = ofp.OFPIT_APPLY_ACTIONS
        flows = (
            (FLOW_A, 10, [p.OFPInstructionMeter(2),
                          p.OFPInstructionActions(apply,
                                                  [p.OFPActionGroup(1)])]),
            (FLOW_B, 11, [p.OFPInstructionMeter(2),
                          p.OFPInstructionActions(apply, [out(1)])]),
            (FLOW_C, 12, [p.OFPInstructionActions(apply,
                                                  [p.OFPActionGroup(1)])]))
        for cookie, prio, inst in flows:
            send(p.OFPFlowMod(dp, cookie=cookie, priority=prio,
                              flags=ofp.OFPFF_SEND_FLOW_REM,
                              match=p.OFPMatch(eth_type=0x0800,
                                               ip_proto=prio),
                              instructions=inst))

    def read(self, dp, final):
        ofp, p = dp.ofproto, dp.ofproto_parser
        send = dp.send_msg
        if final:
            send(p.OFPMeterMod(dp, ofp.OFPMC_DELETE, 0, 2, []))
            send(p.OFPGroupMod(dp, ofp.OFPGC_DELETE, 0, 3, []))
            send(p.OFPFlowStatsRequest(dp))
        send(p.OFPGroupDescStatsRequest(dp))
        send(p.OFPGroupStatsRequest(dp, 0, ofp.OFPG_ALL))
        send(p.OFPMeterConfigStatsRequest(dp, 0, ofp.OFPM_ALL))
        send(p.OFPMeterStatsRequest(dp, 0, ofp.OFPM_ALL))
        send(p.OFPGroupFeaturesStatsRequest(dp, 0))
        # The last reply of a phase ends it.
        send(p.OFPMeterFeaturesStatsRequest(dp, 0))

    @set_ev_cls(ofp_event.EventOFPErrorMsg, MAIN_DISPATCHER)
    def error(self, ev):
        self.state(ev.msg.datapath)["of_errors"].append(
            (ev.msg.type, ev.msg.code))

    @set_ev_cls(ofp_event.EventOFPFlowRemoved, MAIN_DISPATCHER)
    def removed(self, ev):
        m = ev.msg
        self.state(m.datapath)["removed"].append((m.cookie, m.reason))

    @set_ev_cls(ofp_event.EventOFPFlowStatsReply, MAIN_DISPATCHER)
    def flow_stats(self, ev):
        dp = ev.msg.datapath
        cookies = sorted(f.cookie for f in ev.msg.body)
        if cookies != [FLOW_C]:
            self.fail(dp, "flows after meter 2 went: %s" % cookies)

    @set_ev_cls(ofp_event.EventOFPGroupDescStatsReply, MAIN_DISPATCHER)
    def group_desc(self, ev):
        dp = ev.msg.datapath
        ofp = dp.ofproto
        want = {1: (ofp.OFPGT_ALL, [0, 0], [1, 2]),
                2: (ofp.OFPGT_SELECT, [10, 20], [1, 2]),
                3: (ofp.OFPGT_INDIRECT, [0], [3])}
        if self.state(dp)["phase"] == 2:
            del want[3]
        got = {}
        for g in ev.msg.body:
            got[g.group_id] = (g.type, [b.weight for b in g.buckets],
                               [b.actions[0].port for b in g.buckets])
        if got != want:
            self.fail(dp, "GROUP_DESC %s, want %s" % (got, want))

    @set_ev_cls(ofp_event.EventOFPGroupStatsReply, MAIN_DISPATCHER)
    def group_stats(self, ev):
        dp = ev.msg.datapath
        want = {1: (2, 2), 2: (0, 2), 3: (0, 1)}
        if self.state(dp)["phase"] == 2:
            want = {1: (1, 2), 2: (0, 2)}
        got = {g.group_id: (g.ref_count, len(g.bucket_stats))
               for g in ev.msg.body}
        if got != want:
            self.fail(dp, "GROUP ref_count, buckets %s, want %s" %
                      (got, want))

    @set_ev_cls(ofp_event.EventOFPGroupFeaturesStatsReply, MAIN_DISPATCHER)
    def group_features(self, ev):
        f = single(ev.msg.body)
        if f.types != 0xf or f.max_groups[0] != 4096:
            self.fail(ev.msg.datapath, "GROUP_FEATURES types %#x max %s" %
                      (f.types, f.max_groups))

    @set_ev_cls(ofp_event.EventOFPMeterConfigStatsReply, MAIN_DISPATCHER)
    def meter_config(self, ev):
        dp = ev.msg.datapath
        ofp = dp.ofproto
        want = {1: (ofp.OFPMF_KBPS, [(ofp.OFPMBT_DROP, 1000, 0, None)]),
                2: (ofp.OFPMF_PKTPS | ofp.OFPMF_BURST | ofp.OFPMF_STATS,
                    [(ofp.OFPMBT_DROP, 100, 10, None),
                     (ofp.OFPMBT_DSCP_REMARK, 50, 5, 1)])}
        if self.state(dp)["phase"] == 2:
            del want[2]
        got = {m.meter_id: (m.flags, [
            (b.type, b.rate, b.burst_size, getattr(b, "prec_level", None))
            for b in m.bands]) for m in ev.msg.body}
        if got != want:
            self.fail(dp, "METER_CONFIG %s, want %s" % (got, want))

    @set_ev_cls(ofp_event.EventOFPMeterStatsReply, MAIN_DISPATCHER)
    def meter_stats(self, ev):
        dp = ev.msg.datapath
        want = {1: (0, 1), 2: (2, 2)}
        if self.state(dp)["phase"] == 2:
            want = {1: (0, 1)}
        got = {m.meter_id: (m.flow_count, len(m.band_stats))
               for m in ev.msg.body}
        if got != want:
            self.fail(dp, "METER flow_count, bands %s, want %s" %
                      (got, want))
        for m in ev.msg.body:
            if any(b.packet_band_count or b.byte_band_count
                   for b in m.band_stats) or m.packet_in_count:
                self.fail(dp, "meter %d counted traffic" % m.meter_id)

    @set_ev_cls(ofp_event.EventOFPMeterFeaturesStatsReply, MAIN_DISPATCHER)
    def meter_features(self, ev):
        dp = ev.msg.datapath
        ofp = dp.ofproto
        f = single(ev.msg.body)
        got = (f.max_meter, f.band_types, f.capabilities, f.max_bands,
               f.max_color)
        want = (4096, 1 << ofp.OFPMBT_DROP | 1 << ofp.OFPMBT_DSCP_REMARK,
                ofp.OFPMF_KBPS | ofp.OFPMF_PKTPS | ofp.OFPMF_BURST |
                ofp.OFPMF_STATS, 8, 0)
        if got != want:
            self.fail(dp, "METER_FEATURES %s, want %s" % (got, want))
        st = self.state(dp)
        if st["phase"] == 1:
            st["phase"] = 2
            self.read(dp, final=True)
        else:
            self.verdict(dp)

    def verdict(self, dp):
        ofp = dp.ofproto
        st = self.state(dp)
        if st["of_errors"] != [(ofp.OFPET_METER_MOD_FAILED,
                                ofp.OFPMMFC_METER_EXISTS)]:
            self.fail(dp, "errors %s, want one METER_EXISTS" %
                      st["of_errors"])
        want = sorted([(FLOW_A, ofp.OFPRR_DELETE), (FLOW_B, ofp.OFPRR_DELETE)])
        if sorted(st["removed"]) != want:
            self.fail(dp, "FLOW_REMOVED %s, want %s" % (st["removed"], want))
        with open(os.environ["OSKEN_RESULT"], "a") as f:
            f.write(json.dumps({"dpid": dp.id, "errors": st["errors"]}) +
                    "\n")
